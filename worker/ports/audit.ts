/** Ports of the audit trail: hashing and signing (WebCrypto at the edge, node:crypto in tests). */

/** SHA-256 and Ed25519 as the audit trail needs them. */
export interface AuditCrypto {
  /** SHA-256 of the UTF-8 bytes of `text`, lower-case hex. */
  sha256Hex(text: string): Promise<string>;
  /** The Ed25519 signature (base64url) of the ASCII bytes of `hashHex`, or null when no key is configured. */
  sign(hashHex: string): Promise<{ sig: string; keyId: string } | null>;
}
