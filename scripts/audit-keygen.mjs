/**
 * Makes an Ed25519 key pair for the audit trail. Prints the private key as the `AUDIT_KEY` secret
 * (PKCS#8 DER, base64) and the public key (raw 32 bytes, base64url) that `GET /api/audit/public-key`
 * will publish and `npm run audit:verify -- file --key <public key>` checks against.
 *
 * Usage: npm run audit:keygen
 *   then: wrangler secret put AUDIT_KEY   (paste the AUDIT_KEY value), or put the line in .dev.vars
 */
import { createHash, generateKeyPairSync } from "node:crypto";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const secret = privateKey.export({ type: "pkcs8", format: "der" }).toString("base64");
const x = publicKey.export({ format: "jwk" }).x;
const keyId = createHash("sha256").update(Buffer.from(x, "base64url")).digest("hex").slice(0, 16);
console.log(`AUDIT_KEY=${secret}`);
console.log(`# public key (base64url): ${x}`);
console.log(`# key id: ${keyId}`);
console.log("# store it: wrangler secret put AUDIT_KEY   (or add the AUDIT_KEY line to .dev.vars)");
