import "server-only";

/**
 * Read a body whole, but no more than `maxBytes`: past it the stream is cancelled (the sender stops paying for it)
 * and `tooLarge()` is thrown. For bodies read to the end before use (our API's JSON, authorization-server answers).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null | undefined,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const reader = body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
