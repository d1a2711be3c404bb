// AES-GCM encryption of Slack bot tokens at rest, under a key derived (SHA-256) from the SLACK_TOKEN_KEY Worker secret.

export interface TokenCipher {
  encrypt(plain: string): Promise<string>;
  decrypt(sealed: string): Promise<string>;
}

const enc = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** `v1.<iv b64>.<ciphertext+tag b64>`; a fresh 96-bit iv per encryption. */
export function createTokenCipher(secret: string): TokenCipher {
  let key: Promise<CryptoKey> | undefined;
  const getKey = () => {
    key ??= crypto.subtle
      .digest("SHA-256", enc.encode(`warden-slack-token:${secret}`))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    return key;
  };
  return {
    async encrypt(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await getKey(), enc.encode(plain));
      return `v1.${b64(iv)}.${b64(new Uint8Array(ct))}`;
    },
    async decrypt(sealed) {
      const [v, iv, ct] = sealed.split(".");
      if (v !== "v1" || !iv || !ct) throw new Error("sealed token: unknown format");
      const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: unb64(iv) }, await getKey(), unb64(ct));
      return new TextDecoder().decode(plain);
    },
  };
}
