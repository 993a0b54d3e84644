import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  checkApiCall,
  checkHost,
  checkMcpEndpoint,
  checkPageLoad,
  hostName,
  pageReachesUpstream,
  pageServer,
  SCRIPT_HEADER_HINT,
  type HostPolicy,
  type PageVerdict,
  type RequestHeaders,
  type Verdict,
} from "./request-rules.ts";

const OK = { ok: true };

/**
 * The status of a Host we do not answer to: 421 Misdirected Request, as the security issue asks (the request was
 * sent to a server that does not serve that name).
 */
const FOREIGN_HOST_STATUS = 403;

/** The status and message of a refusal; fails the test when the verdict is not a refusal. */
function refusal(v: Verdict | PageVerdict): { status: number; message: string } {
  assert.equal(v.ok, false, "expected a refusal");
  if (v.ok) throw new Error("unreachable");
  return { status: v.status, message: v.message };
}

describe("hostName", () => {
  test("drops the port, lower-cases, keeps IPv6 brackets", () => {
    assert.equal(hostName("LocalHost:3000"), "localhost");
    assert.equal(hostName("example.com"), "example.com");
    assert.equal(hostName("[::1]:8080"), "[::1]");
    assert.equal(hostName("[::1]"), "[::1]");
  });
});

describe("checkHost, local mode", () => {
  const local: HostPolicy = { mode: "local", allowedHosts: ["devbox.lan", "[fd00::5]"] };

  for (const host of ["localhost", "localhost:3000", "127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:3000", "LOCALHOST:3000", "LocalHost"]) {
    test(`loopback ${host} is accepted`, () => {
      assert.deepEqual(checkHost(host, local), OK);
    });
  }

  test("names from TOOLSCOPE_ALLOWED_HOSTS are accepted, with any port and in any case", () => {
    assert.deepEqual(checkHost("devbox.lan", local), OK);
    assert.deepEqual(checkHost("devbox.lan:3000", local), OK);
    assert.deepEqual(checkHost("DevBox.LAN:3000", local), OK);
    assert.deepEqual(checkHost("[fd00::5]:3000", local), OK);
  });

  test("a foreign name is refused (421) naming TOOLSCOPE_ALLOWED_HOSTS", () => {
    const r = refusal(checkHost("evil.example", local));
    assert.equal(r.status, FOREIGN_HOST_STATUS);
    assert.match(r.message, /TOOLSCOPE_ALLOWED_HOSTS/);
    assert.match(r.message, /Host "evil\.example"/);
    assert.match(r.message, /DNS-rebinding/);
  });

  test("names that merely contain an allowed name are foreign", () => {
    for (const host of [
      "localhost.evil.example",
      "evil-localhost",
      "127.0.0.1.nip.io",
      "devbox.lan.evil.example",
      "sub.devbox.lan",
      "localhost.",
    ]) {
      assert.equal(refusal(checkHost(host, local)).status, FOREIGN_HOST_STATUS, host);
    }
  });

  test("an unlisted IPv6 literal is foreign", () => {
    assert.equal(refusal(checkHost("[::2]:3000", local)).status, FOREIGN_HOST_STATUS);
  });

  test("junk is a 400 that quotes the value", () => {
    for (const host of [
      "localhost:abc",
      "localhost@evil",
      "evil.example#.localhost",
      "localhost:3000:1",
      "local host",
      "localhost/x",
      "[::1",
      "localhost:123456",
      "user@localhost",
    ]) {
      const r = refusal(checkHost(host, local));
      assert.equal(r.status, 400, host);
      assert.equal(r.message, `The Host header "${host}" is not a host name with an optional port.`);
    }
  });

  test("empty and missing Host are a 400", () => {
    for (const host of ["", null]) {
      assert.deepEqual(checkHost(host, local), { ok: false, status: 400, message: "The request has no Host header." });
    }
  });

  test("a very long Host is clipped in the message", () => {
    const host = `${"a".repeat(200)}.example`;
    const r = refusal(checkHost(host, local));
    assert.equal(r.status, FOREIGN_HOST_STATUS);
    assert.ok(!r.message.includes(host), "the whole value is not echoed");
    assert.match(r.message, /a{79}…/);
  });

  test("the configured public URL's host is accepted in local mode too", () => {
    const policy: HostPolicy = { mode: "local", allowedHosts: [], publicOrigin: "https://tunnel.example.com" };
    assert.deepEqual(checkHost("tunnel.example.com", policy), OK);
    assert.equal(refusal(checkHost("other.example.com", policy)).status, FOREIGN_HOST_STATUS);
  });
});

describe("checkHost, hosted mode", () => {
  const hosted: HostPolicy = { mode: "hosted", allowedHosts: [], publicOrigin: "https://toolscope.example.com" };
  const withPort: HostPolicy = { mode: "hosted", allowedHosts: [], publicOrigin: "https://toolscope.example.com:8443" };

  test("exactly the public URL's host is accepted (any case)", () => {
    assert.deepEqual(checkHost("toolscope.example.com", hosted), OK);
    assert.deepEqual(checkHost("ToolScope.Example.COM", hosted), OK);
  });

  test("with a port in the public URL, the host with that port is accepted and nothing else", () => {
    assert.deepEqual(checkHost("toolscope.example.com:8443", withPort), OK);
    assert.equal(refusal(checkHost("toolscope.example.com", withPort)).status, FOREIGN_HOST_STATUS);
    assert.equal(refusal(checkHost("toolscope.example.com:8444", withPort)).status, FOREIGN_HOST_STATUS);
  });

  test("another port of the public host is refused", () => {
    assert.equal(refusal(checkHost("toolscope.example.com:3000", hosted)).status, FOREIGN_HOST_STATUS);
  });

  test("anything else is refused (421) naming the public host and TOOLSCOPE_PUBLIC_URL", () => {
    for (const host of ["evil.example", "example.com", "sub.toolscope.example.com", "localhost", "localhost:3000", "127.0.0.1", "[::1]"]) {
      const r = refusal(checkHost(host, hosted));
      assert.equal(r.status, FOREIGN_HOST_STATUS, host);
      assert.match(r.message, /TOOLSCOPE_PUBLIC_URL/);
      assert.match(r.message, /answers only to toolscope\.example\.com,/);
      assert.ok(r.message.includes(`Host "${host}"`), r.message);
    }
  });

  test("TOOLSCOPE_ALLOWED_HOSTS does not widen hosted mode", () => {
    const policy: HostPolicy = { ...hosted, allowedHosts: ["devbox.lan"] };
    assert.equal(refusal(checkHost("devbox.lan", policy)).status, FOREIGN_HOST_STATUS);
  });

  test("without a public URL everything is refused with a pointer to TOOLSCOPE_PUBLIC_URL", () => {
    const r = refusal(checkHost("toolscope.example.com", { mode: "hosted", allowedHosts: [] }));
    assert.equal(r.status, FOREIGN_HOST_STATUS);
    assert.match(r.message, /answers only to its TOOLSCOPE_PUBLIC_URL/);
  });

  test("junk is still a 400 in hosted mode", () => {
    assert.equal(refusal(checkHost("toolscope.example.com@evil", hosted)).status, 400);
    assert.equal(refusal(checkHost(null, hosted)).status, 400);
  });
});

const OURS = "http://localhost:3000";

function headers(extra: Partial<RequestHeaders> = {}): RequestHeaders {
  return { method: "GET", origin: null, secFetchSite: null, secFetchMode: null, secFetchDest: null, contentType: null, ...extra };
}

function post(extra: Partial<RequestHeaders> = {}): RequestHeaders {
  return headers({ method: "POST", origin: OURS, contentType: "application/json", ...extra });
}

describe("checkApiCall", () => {
  test("same Origin is accepted (also with a trailing path or default port spelled out)", () => {
    assert.deepEqual(checkApiCall(headers({ origin: OURS }), OURS), OK);
    assert.deepEqual(checkApiCall(post(), OURS), OK);
    assert.deepEqual(checkApiCall(headers({ origin: "https://toolscope.example.com" }), "https://toolscope.example.com:443"), OK);
  });

  test("a foreign Origin is a 403 that names it", () => {
    assert.deepEqual(checkApiCall(post({ origin: "https://evil.example" }), OURS), {
      ok: false,
      status: 403,
      message: `Cross-origin calls to Toolscope's API are refused (Origin "https://evil.example" is not ${OURS}).`,
    });
  });

  test("Origin null (sandboxed frame, data: URL) is a 403", () => {
    const r = refusal(checkApiCall(post({ origin: "null" }), OURS));
    assert.equal(r.status, 403);
    assert.match(r.message, /Origin "null"/);
  });

  test("Origin null is refused even with Sec-Fetch-Site same-origin", () => {
    assert.equal(refusal(checkApiCall(post({ origin: "null", secFetchSite: "same-origin" }), OURS)).status, 403);
  });

  test("another port or scheme on localhost is another origin: 403", () => {
    for (const origin of ["http://localhost:3001", "http://localhost", "https://localhost:3000", "http://127.0.0.1:3000"]) {
      assert.equal(refusal(checkApiCall(post({ origin }), OURS)).status, 403, origin);
    }
  });

  test("an Origin that is not a URL is a 403", () => {
    assert.equal(refusal(checkApiCall(post({ origin: "garbage" }), OURS)).status, 403);
  });

  test("no Origin: Sec-Fetch-Site same-origin or none is accepted", () => {
    assert.deepEqual(checkApiCall(headers({ secFetchSite: "same-origin" }), OURS), OK);
    assert.deepEqual(checkApiCall(headers({ secFetchSite: "none" }), OURS), OK);
    assert.deepEqual(checkApiCall(post({ origin: null, secFetchSite: "same-origin" }), OURS), OK);
  });

  test("no Origin: Sec-Fetch-Site cross-site or same-site is a 403 that names the value", () => {
    for (const site of ["cross-site", "same-site"]) {
      assert.deepEqual(checkApiCall(headers({ secFetchSite: site }), OURS), {
        ok: false,
        status: 403,
        message: `Calls to Toolscope's API from other sites are refused (Sec-Fetch-Site: ${site}).`,
      });
    }
  });

  test("neither header: a 403 that tells a script which header to send", () => {
    const r = refusal(checkApiCall(headers(), OURS));
    assert.equal(r.status, 403);
    assert.equal(r.message, `Toolscope's API answers only its own pages. ${SCRIPT_HEADER_HINT}`);
    assert.match(r.message, /"Origin: <this Toolscope's origin>"/);
    assert.match(r.message, /"Sec-Fetch-Site: same-origin"/);
  });

  test("POST bodies that a form or a simple request can send are a 415", () => {
    for (const contentType of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      assert.deepEqual(checkApiCall(post({ contentType }), OURS), {
        ok: false,
        status: 415,
        message: `Send the request body as JSON with "Content-Type: application/json" (got "${contentType}").`,
      });
    }
  });

  test("a POST without a content type is a 415 that says none was sent", () => {
    const r = refusal(checkApiCall(post({ contentType: null }), OURS));
    assert.equal(r.status, 415);
    assert.match(r.message, /\(got none\)\.$/);
  });

  test("a content type that only starts like JSON is a 415", () => {
    assert.equal(refusal(checkApiCall(post({ contentType: "application/jsonp" }), OURS)).status, 415);
    assert.equal(refusal(checkApiCall(post({ contentType: "application/json-seq" }), OURS)).status, 415);
  });

  test("JSON with parameters or in upper case is accepted", () => {
    assert.deepEqual(checkApiCall(post({ contentType: "application/json; charset=utf-8" }), OURS), OK);
    assert.deepEqual(checkApiCall(post({ contentType: "Application/JSON" }), OURS), OK);
  });

  test("the content type is checked for other body methods too", () => {
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      assert.equal(refusal(checkApiCall(post({ method, contentType: "text/plain" }), OURS)).status, 415, method);
    }
  });

  test("GET, HEAD and OPTIONS need no content type", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      assert.deepEqual(checkApiCall(headers({ method, origin: OURS }), OURS), OK, method);
      assert.deepEqual(checkApiCall(headers({ method, secFetchSite: "same-origin" }), OURS), OK, method);
    }
  });

  test("a foreign Origin is refused before the body is looked at (403, not 415)", () => {
    assert.equal(refusal(checkApiCall(post({ origin: "https://evil.example", contentType: "text/plain" }), OURS)).status, 403);
  });
});

describe("checkMcpEndpoint", () => {
  test("clients without Origin pass (any MCP client)", () => {
    assert.deepEqual(checkMcpEndpoint(post({ origin: null, contentType: null }), OURS), OK);
    assert.deepEqual(checkMcpEndpoint(headers(), OURS), OK);
  });

  test("our own origin passes, without the JSON rule", () => {
    assert.deepEqual(checkMcpEndpoint(post(), OURS), OK);
    assert.deepEqual(checkMcpEndpoint(post({ contentType: "text/plain" }), OURS), OK);
  });

  test("a browser page of another origin is a 403 that names it", () => {
    assert.deepEqual(checkMcpEndpoint(post({ origin: "https://evil.example" }), OURS), {
      ok: false,
      status: 403,
      message: `Browser pages of other origins may not call this MCP server (Origin "https://evil.example").`,
    });
    assert.equal(refusal(checkMcpEndpoint(post({ origin: "http://localhost:3001" }), OURS)).status, 403);
  });

  test("Origin null is a 403", () => {
    assert.equal(refusal(checkMcpEndpoint(post({ origin: "null" }), OURS)).status, 403);
  });
});

describe("checkPageLoad", () => {
  const page = (secFetchSite: string | null, secFetchDest: string | null) =>
    headers({ secFetchSite, secFetchDest, secFetchMode: secFetchDest === "document" ? "navigate" : "no-cors" });

  test("cross-site subresource loads of an upstream page are a 403 naming the destination", () => {
    for (const dest of ["image", "script", "style", "empty", "audio", "video", "track", "font"]) {
      for (const mode of ["local", "hosted"] as const) {
        assert.deepEqual(checkPageLoad(page("cross-site", dest), true, mode), {
          ok: false,
          status: 403,
          message: `Other sites cannot load this page as a subresource (Sec-Fetch-Dest: ${dest}).`,
        });
      }
    }
  });

  test("a missing or blank Sec-Fetch-Dest from another site counts as empty", () => {
    for (const dest of [null, ""]) {
      const r = refusal(checkPageLoad(page("cross-site", dest), true, "local"));
      assert.equal(r.status, 403);
      assert.match(r.message, /\(Sec-Fetch-Dest: empty\)/);
    }
  });

  test("same-site is treated as another site", () => {
    assert.equal(refusal(checkPageLoad(page("same-site", "image"), true, "hosted")).status, 403);
  });

  test("cross-site subresource loads of a page that reaches no server are allowed", () => {
    assert.deepEqual(checkPageLoad(page("cross-site", "image"), false, "local"), OK);
  });

  test("framing by another site is a 403 on any page", () => {
    for (const dest of ["iframe", "frame", "embed", "object", "fencedframe"]) {
      for (const upstream of [true, false]) {
        for (const mode of ["local", "hosted"] as const) {
          for (const site of ["cross-site", "same-site"]) {
            assert.deepEqual(
              checkPageLoad(page(site, dest), upstream, mode),
              { ok: false, status: 403, message: "Toolscope pages cannot be framed by other sites." },
              `${site} ${dest} upstream=${upstream} ${mode}`,
            );
          }
        }
      }
    }
  });

  test("a cross-site navigation to an upstream page asks first in local mode", () => {
    const v = checkPageLoad(page("cross-site", "document"), true, "local");
    assert.deepEqual(v, {
      ok: false,
      status: 200,
      confirm: true,
      message: "You followed a link from another site to a page that makes your local Toolscope contact an MCP server.",
    });
  });

  test("a cross-site navigation to an upstream page is fine in hosted mode", () => {
    assert.deepEqual(checkPageLoad(page("cross-site", "document"), true, "hosted"), OK);
  });

  test("a cross-site navigation to a page that reaches no server is fine in local mode", () => {
    assert.deepEqual(checkPageLoad(page("cross-site", "document"), false, "local"), OK);
  });

  test("same-origin, none and absent Sec-Fetch-Site are always fine, whatever the destination", () => {
    for (const site of ["same-origin", "none", null]) {
      for (const dest of ["document", "image", "iframe", "empty", null]) {
        for (const mode of ["local", "hosted"] as const) {
          assert.deepEqual(checkPageLoad(page(site, dest), true, mode), OK, `${site} ${dest} ${mode}`);
        }
      }
    }
  });
});

describe("pageServer and pageReachesUpstream", () => {
  const cases: [string, string | undefined, boolean][] = [
    ["/docs?server=builtin:demo", "builtin:demo", false],
    ["/docs?server=https://x/mcp", "https://x/mcp", true],
    ["/docs?url=https://x/mcp", "https://x/mcp", true],
    ["/docs?url=builtin:demo", "builtin:demo", false],
    ["/docs?server=builtin:demo&url=https://x/mcp", "builtin:demo", false],
    ["/docs", "builtin:demo", false],
    ["/docs/tools/x?server=https://x/mcp", "https://x/mcp", true],
    ["/docs/tools/x?server=builtin:demo", "builtin:demo", false],
    ["/docs/tools/x", "builtin:demo", false],
    ["/playground", "playground", true],
    ["/playground?server=builtin:demo", "playground", true],
    ["/diff?a=ID", "live", true],
    ["/diff?a=ID&b=live", "live", true],
    ["/diff?a=ID&b=ID2", undefined, false],
    ["/diff", undefined, false],
    ["/s/ID", undefined, false],
    ["/", undefined, false],
    ["/docsx?server=https://x/mcp", undefined, false],
    ["/about?server=https://x/mcp", undefined, false],
  ];
  for (const [url, server, reaches] of cases) {
    test(`${url} → ${server ?? "none"}, reaches upstream: ${reaches}`, () => {
      const u = new URL(url, "http://localhost:3000");
      assert.equal(pageServer(u.pathname, u.searchParams), server);
      assert.equal(pageReachesUpstream(u.pathname, u.searchParams), reaches);
    });
  }

  test("an encoded server URL is decoded", () => {
    const u = new URL("/docs?server=https%3A%2F%2Fmcp.example.com%2Fmcp", "http://localhost:3000");
    assert.equal(pageServer(u.pathname, u.searchParams), "https://mcp.example.com/mcp");
    assert.equal(pageReachesUpstream(u.pathname, u.searchParams), true);
  });
});
