// Bundle shim for `mimetext` (see README.md): agents' email replies, unused here.
export function createMimeMessage() {
  throw new Error("mimetext is not in this worker bundle (worker/bundle-shims): no email routing");
}
