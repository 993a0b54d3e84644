import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The proxy and demo server run on Node (undici Agent, DNS checks); nothing here targets the edge runtime.
  serverExternalPackages: [],
};

export default nextConfig;
