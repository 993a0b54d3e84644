/**
 * OAuth for machines without a person (the MCP authorization extensions' client credentials): when a server answers
 * 401 and the flags name a client, the official SDK's providers discover the authorization server from the
 * challenge (RFC 9728, RFC 8414) and run the `client_credentials` grant, authenticating with `client_secret_basic`
 * (ClientCredentialsProvider) or a signed JWT (`private_key_jwt`, PrivateKeyJwtProvider). The token then goes to the
 * client core as an `Authorization: Bearer` header, masked in every output like any other header.
 */
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { auth, ClientCredentialsProvider, PrivateKeyJwtProvider, type OAuthClientProvider } from "@modelcontextprotocol/client";
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

/** The JWS algorithm a key signs with by default: its type and curve decide. */
export function defaultAlgorithm(pem: string): string {
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw usageError(`--private-key-file is not a private key in PEM (${(err as Error).message}).`, "Give a PKCS#8 or SEC1 PEM file.");
  }
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
  return { ...common, privateKey, algorithm: str(values["signing-alg"]) ?? defaultAlgorithm(privateKey) };
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
    : new PrivateKeyJwtProvider({ ...common, privateKey: c.privateKey!, algorithm: c.algorithm! });
}

/**
 * An access token for `serverUrl` by the client credentials grant, after the server's 401 `challenge`. Every request
 * of the flow (metadata, token) is bounded by `timeoutMs`. A refusal is an authentication failure (exit 4).
 */
export async function clientCredentialsToken(
  serverUrl: string,
  challenge: OAuthChallenge | undefined,
  c: ClientCredentials,
  timeoutMs: number,
): Promise<string> {
  const p = provider(c);
  const fetchFn = (input: string | URL, init?: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  try {
    const result = await auth(p, {
      serverUrl,
      ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) } : {}),
      ...((c.scope ?? challenge?.scope) ? { scope: c.scope ?? challenge?.scope } : {}),
      fetchFn,
    });
    const token = (await p.tokens())?.access_token;
    if (result !== "AUTHORIZED" || !token) throw new Error(`the flow ended with ${result} and no access token`);
    return token;
  } catch (err) {
    throw new CliError(
      EXIT.auth,
      `The client credentials grant for ${c.clientId} failed: ${(err as Error).message}`,
      "Check the client id and its secret or key, and that the authorization server allows client_credentials for it.",
    );
  }
}
