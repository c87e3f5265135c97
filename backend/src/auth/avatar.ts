import { AVATAR_MAX_BYTES } from '@spades/common';

const DATA_URL = /^data:(image\/(?:jpeg|png|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

function magicMatches(mime: string, b: Buffer): boolean {
  if (mime === 'image/jpeg') return b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  if (mime === 'image/png')
    return b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (mime === 'image/webp')
    return (
      b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'
    );
  return false;
}

/** Checks an avatar data URL: type jpeg/png/webp, base64, decoded size ≤ AVATAR_MAX_BYTES, magic bytes. Returns an error message or null. */
export function avatarError(value: string): string | null {
  const m = DATA_URL.exec(value);
  if (!m) {
    if (/^data:image\/(?:jpeg|png|webp);base64,/.test(value)) return 'Avatar data is not valid base64';
    if (/^data:image\/[\w.+-]+;base64,/.test(value)) return 'Avatar must be a JPEG, PNG or WebP image';
    return 'Avatar must be a data URL of the form data:image/jpeg;base64,...';
  }
  const approx = Math.floor((m[2].length * 3) / 4);
  if (approx > AVATAR_MAX_BYTES + 3) return `Avatar image must be at most ${AVATAR_MAX_BYTES / 1024} KB`;
  const bytes = Buffer.from(m[2], 'base64');
  if (bytes.length > AVATAR_MAX_BYTES) return `Avatar image must be at most ${AVATAR_MAX_BYTES / 1024} KB`;
  if (!magicMatches(m[1], bytes)) return `Avatar content is not a valid ${m[1].slice(6).toUpperCase()} image`;
  return null;
}
