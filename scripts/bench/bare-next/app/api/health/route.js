// The floor of a health probe: a GET answered with a small JSON object.
export function GET() {
  return Response.json({ ok: true });
}
