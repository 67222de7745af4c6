// Bundle shim for `ajv-formats` (see README.md): formats for the shimmed Ajv, a no-op.
export default function addFormats(ajv) {
  return ajv;
}
