"use client";

import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { TryItProps } from "./TryItPanel";

/**
 * The form, the schema checks (ajv) and the result views weigh about as much as the rest of a docs page's
 * JavaScript together: they load when the reader gets near Try it (or asks for it), not with the page.
 */
const TryItPanel = lazy(() => import("./TryItPanel").then((m) => ({ default: m.TryItPanel })));

/** How far below the viewport the panel starts loading, so it is usually there by the time it scrolls into view. */
const PRELOAD_MARGIN = "400px";

const placeholder = "text-sm text-zinc-600 dark:text-zinc-400";

/** Try it on a tool page: loads {@link TryItPanel} when it comes near the viewport, or on request. */
export function TryIt(props: TryItProps) {
  const [wanted, setWanted] = useState(false);
  const slot = useRef<HTMLDivElement>(null);

  // A page opened at #try-it scrolls there, so the observer covers that too; without an observer, the button does.
  useEffect(() => {
    const el = slot.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setWanted(true), {
      rootMargin: PRELOAD_MARGIN,
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, []);

  return (
    <div ref={slot} data-testid="try-it-slot">
      {wanted ? (
        <Suspense fallback={<p className={placeholder}>Loading the form…</p>}>
          <TryItPanel {...props} />
        </Suspense>
      ) : (
        <p className={placeholder}>
          The form for this tool&apos;s arguments loads here.{" "}
          <button type="button" onClick={() => setWanted(true)} className="font-medium text-accent-700 underline dark:text-accent-100">
            Load it now
          </button>
        </p>
      )}
    </div>
  );
}
