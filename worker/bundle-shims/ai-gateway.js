// Bundle shim for `@ai-sdk/gateway` (see README.md): `ai` only reaches the gateway for string model
// ids; this worker always passes provider model objects.
const refuse = () => {
  throw new Error("@ai-sdk/gateway is not in this worker bundle (worker/bundle-shims): pass a provider model");
};
class GatewayErrorShim extends Error {
  static isInstance() {
    return false;
  }
}
export const GatewayError = GatewayErrorShim;
export const GatewayAuthenticationError = GatewayErrorShim;
export const gateway = new Proxy(refuse, { get: () => refuse, apply: refuse });
export const createGateway = () => gateway;
