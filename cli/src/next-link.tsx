/**
 * What the packed CLI's bundle gets for `next/link` (scripts/build-cli.mjs aliases it here): the docs components
 * link with it, and in a static site a link is a plain `<a>`; Next.js's client router has nothing to do there.
 */
import type { AnchorHTMLAttributes, ReactNode } from "react";

export default function Link({
  href,
  children,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ReactNode }) {
  return (
    <a href={href} {...rest}>
      {children}
    </a>
  );
}
