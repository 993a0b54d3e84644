/**
 * OAuth for machines without a person (the MCP authorization extensions' client credentials): when a server answers
 * 401 and the flags name a client, the official SDK's providers discover the authorization server from the
 * challenge (RFC 9728, RFC 8414) and run the `client_credentials` grant, authenticating with `client_secret_basic`
 * (ClientCredentialsProvider) or a signed JWT (`private_key_jwt`, PrivateKeyJwtProvider). The token then goes to the
 * client core as an `Authorization: Bearer` header, masked in every output like any other header.
 */
import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  auth,
  AuthorizationServerMismatchError,
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";
import type { OAuthChallenge } from "../mcp/oauth-contract.ts";
import { CliError, EXIT, usageError } from "./exit-codes.ts";
import { str, type Values } from "./flags.ts";

export interface ClientCredentials {
  clientId: string;
  /** client_secret_basic */
  secret?: string;
  /** private_key_jwt: the key (PEM) and its JWS algorithm. */
  privateKey?: string;
  algorithm?: string;
  scope?: string;
  /** The authorization server's issuer the credentials may go to (pins discovery). */
  issuer?: string;
}

/** The key of a PEM text, or a usage error saying it is none. */
function privateKeyOf(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch (err) {
    throw usageError(`--private-key-file is not a private key in PEM (${(err as Error).message}).`, "Give a PKCS#8 or SEC1 PEM file.");
  }
}

/** The JWS algorithm a key signs with by default: its type and curve decide. */
export function defaultAlgorithm(pem: string): string {
  const key = privateKeyOf(pem);
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === "ec") return curve === "secp384r1" ? "ES384" : curve === "secp521r1" ? "ES512" : "ES256";
  if (type === "rsa" || type === "rsa-pss") return "RS256";
  if (type === "ed25519") return "EdDSA";
  throw usageError(
    `--private-key-file: a ${type} key cannot sign a client assertion.`,
    "Use an EC, RSA or Ed25519 key, or set --signing-alg.",
  );
}

/** The client the flags name, or undefined when they name none. */
export function credentialsFrom(values: Values, env: Readonly<Record<string, string | undefined>>): ClientCredentials | undefined {
  const clientId = str(values["client-id"]);
  const secretVar = str(values["client-secret-env"]);
  const keyFile = str(values["private-key-file"]);
  const keyVar = str(values["private-key-env"]);
  const given = [secretVar, keyFile, keyVar].filter((v) => v !== undefined).length;
  if (clientId === undefined) {
    if (given > 0) throw usageError("--client-secret-env, --private-key-file and --private-key-env need --client-id.");
    return undefined;
  }
  if (given !== 1)
    throw usageError(
      "--client-id needs one way to prove it: --client-secret-env VAR (client_secret_basic), or --private-key-file F / --private-key-env VAR (private_key_jwt).",
    );
  const common = { clientId, scope: str(values.scope), issuer: str(values["auth-issuer"]) };
  if (secretVar !== undefined) {
    const secret = env[secretVar];
    if (!secret) throw usageError(`--client-secret-env: the environment variable ${secretVar} is not set.`);
    return { ...common, secret };
  }
  let privateKey: string;
  if (keyVar !== undefined) {
    const value = env[keyVar];
    if (!value) throw usageError(`--private-key-env: the environment variable ${keyVar} is not set.`);
    privateKey = value;
  } else {
    try {
      privateKey = readFileSync(keyFile!, "utf8");
    } catch {
      throw usageError(`--private-key-file ${keyFile}: cannot read it.`);
    }
  }
  const algorithm = str(values["signing-alg"]);
  // Checked here even with --signing-alg: a text that is no key is a usage error, not a refused grant.
  if (algorithm !== undefined) privateKeyOf(privateKey);
  return { ...common, privateKey, algorithm: algorithm ?? defaultAlgorithm(privateKey) };
}

/** The secrets the credentials carry (masked in every output). */
export function credentialSecrets(c: ClientCredentials): string[] {
  return [c.secret, c.privateKey].filter((v): v is string => typeof v === "string");
}

function provider(c: ClientCredentials): OAuthClientProvider {
  const common = {
    clientId: c.clientId,
    clientName: "toolscope",
    ...(c.scope ? { scope: c.scope } : {}),
    ...(c.issuer ? { expectedIssuer: c.issuer } : {}),
  };
  return c.secret !== undefined
    ? new ClientCredentialsProvider({ ...common, clientSecret: c.secret })
    : new PrivateKeyJwtProvider({ ...common, privateKey: signingJwk(c.privateKey!), algorithm: c.algorithm! });
}

/**
 * The key as a private JWK: the SDK reads a PEM string as PKCS#8 only, and a string only for RS, PS and ES
 * algorithms, so a SEC1 or PKCS#1 file, or an Ed25519 key (EdDSA), would fail the grant; a JWK it imports for any.
 */
function signingJwk(pem: string): Record<string, unknown> {
  return { ...createPrivateKey(pem).export({ format: "jwk" }) };
}

/**
 * Runs `fn` with console.warn going to `notice`: the SDK warns on the console (a deprecation, a retry after
 * invalid_client), which would reach stderr unmasked and even under --quiet. The commands run one grant at a time,
 * so swapping the global for the flow's duration is safe.
 */
async function withSdkWarnings<T>(notice: (text: string) => void, fn: () => Promise<T>): Promise<T> {
  const original = console.warn;
  console.warn = (...args: unknown[]) => notice(args.map(String).join(" "));
  try {
    return await fn();
  } finally {
    console.warn = original;
  }
}

/**
 * An access token for `serverUrl` by the client credentials grant, after the server's 401 `challenge`. Every request
 * of the flow (metadata, token) is bounded by `timeoutMs`. A refusal is an authentication failure (exit 4). The SDK's
 * warnings, and which authorization server answered when none is pinned, go to `progress`.
 */
export async function clientCredentialsToken(
  serverUrl: string,
  challenge: OAuthChallenge | undefined,
  c: ClientCredentials,
  timeoutMs: number,
  progress: (text: string) => void = () => {},
): Promise<string> {
  // Without --auth-issuer the SDK warns in the words of its own options; the note after the grant names the flag.
  const notice = (text: string) => {
    if (!text.includes("Omitting `expectedIssuer`")) progress(text);
  };
  const fetchFn = (input: string | URL, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  try {
    const tokens = await withSdkWarnings(notice, async () => {
      const p = provider(c);
      const result = await auth(p, {
        serverUrl,
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) } : {}),
        ...((c.scope ?? challenge?.scope) ? { scope: c.scope ?? challenge?.scope } : {}),
        fetchFn,
      });
      const saved = await p.tokens();
      if (result !== "AUTHORIZED" || !saved?.access_token) throw new Error(`the flow ended with ${result} and no access token`);
      return saved;
    });
    if (!c.issuer && tokens.issuer)
      progress(`token from ${tokens.issuer}: pass --auth-issuer ${tokens.issuer} so the credentials can go to no other server`);
    return tokens.access_token;
  } catch (err) {
    // A pinned issuer the server does not name is refused before the token request: the flag is what to check.
    throw new CliError(
      EXIT.auth,
      `The client credentials grant for ${c.clientId} failed: ${(err as Error).message}`,
      err instanceof AuthorizationServerMismatchError
        ? `The server names an authorization server other than --auth-issuer ${c.issuer}, so the credentials were not sent. Check --auth-issuer.`
        : "Check the client id and its secret or key, and that the authorization server allows client_credentials for it.",
    );
  }
}
