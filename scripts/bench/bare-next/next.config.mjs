/** A bare Next.js app: defaults only, as `create-next-app` would leave them for route handlers. */
const nextConfig = {};
export default nextConfig;
