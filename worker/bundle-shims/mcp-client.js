// Bundle shim for `@modelcontextprotocol/client` (see README.md): agents' Agent can connect to MCP
// servers; no session here does, so the client classes exist only to refuse being used.
const refuse = (what) => () => {
  throw new Error(`${what}: MCP client connections are not in this worker bundle (worker/bundle-shims)`);
};
export class Client {
  constructor() {
    refuse("Client")();
  }
}
export class StreamableHTTPClientTransport {
  constructor() {
    refuse("StreamableHTTPClientTransport")();
  }
}
export class SSEClientTransport {
  constructor() {
    refuse("SSEClientTransport")();
  }
}
export class SdkHttpError extends Error {}
export const validateClientMetadataUrl = refuse("validateClientMetadataUrl");
