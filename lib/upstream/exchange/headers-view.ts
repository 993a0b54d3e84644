/**
 * A request's headers to read: the Headers object itself when it is one (the SDK transport hands one), else a Headers
 * made from what was given. Copying a Headers validates every name and value again, on every proxied call (issue 15).
 */
export function headersView(init: HeadersInit | undefined): Headers {
  return init instanceof Headers ? init : new Headers(init);
}
