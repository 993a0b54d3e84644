import Link from "next/link";

/** A snapshot id (or a tool in it) that does not exist: answered with HTTP 404. */
export default function SnapshotNotFound() {
  return (
    <div className="mx-auto max-w-3xl space-y-3 px-4 py-12" data-testid="snapshot-not-found">
      <h1 className="text-2xl font-semibold">Not in any snapshot</h1>
      <p className="text-sm">
        There is no snapshot at this address, or the snapshot has no such tool. Snapshot links never change, so the link may be mistyped or
        cut short.
      </p>
      <p className="text-sm">
        <Link className="underline" href="/docs?server=builtin:demo">
          Browse the demo docs
        </Link>{" "}
        and use Share to make a new link.
      </p>
    </div>
  );
}
