// The floor: what any Next.js route pays to take a JSON body and answer it, with nothing of Toolscope around it.
export async function POST(req) {
  return Response.json(await req.json());
}
