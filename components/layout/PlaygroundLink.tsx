"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense } from "react";

/**
 * The header's "Playground" link. On a docs page of a server (`/docs?server=X`, `/docs/tools/…?server=X`) it opens that
 * server in the playground; elsewhere the playground as it was left (its tabs).
 */
export function PlaygroundLink({ className }: { className?: string }) {
  // useSearchParams needs a Suspense boundary wherever a page could render statically: the plain link until then.
  return (
    <Suspense fallback={<Target server={null} className={className} />}>
      <CurrentServerLink className={className} />
    </Suspense>
  );
}

function CurrentServerLink({ className }: { className?: string }) {
  const pathname = usePathname();
  const params = useSearchParams();
  const onDocs = pathname === "/docs" || pathname.startsWith("/docs/");
  return <Target server={onDocs ? params.get("server") : null} className={className} />;
}

function Target({ server, className }: { server: string | null; className?: string }) {
  return (
    <Link
      href={server ? `/playground?server=${encodeURIComponent(server)}` : "/playground"}
      className={className}
      data-testid="nav-playground"
    >
      Playground
    </Link>
  );
}
