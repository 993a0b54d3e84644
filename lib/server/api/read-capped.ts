import "server-only";

/** A time limit on reading a body: past `ms` from the start of the read, `tooSlow()` is thrown. */
export interface ReadDeadline {
  ms: number;
  tooSlow: () => Error;
}

/**
 * Read a body whole, but no more than `maxBytes`: past it the stream is cancelled (the sender stops paying for it)
 * and `tooLarge()` is thrown. With a `deadline`, a sender that stalls part-way is cut the same way when it passes,
 * not waited for until Node's own request timeout. For bodies read to the end before use (our API's JSON,
 * authorization-server answers). The deadline races each read directly rather than wrapping the body in a second
 * stream: this runs on every API request (issue 28's profile).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  tooLarge: () => Error,
  deadline?: ReadDeadline,
): Promise<Buffer> {
  const reader = body?.getReader();
  if (!reader) return Buffer.alloc(0);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired =
    deadline &&
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(deadline.tooSlow()), deadline.ms);
    });
  expired?.catch(() => {});
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await (expired ? Promise.race([reader.read(), expired]) : reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks);
}
