/** Spec §5 avatar checks and compression; §3 avatar fallbacks (clarification 8: stable hash for non-numeric ids). */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const AVATAR_MAX_SIDE = 200;
export const AVATAR_QUALITY = 0.7;

export function checkAvatarFile(file: { type: string; size: number }): string | null {
  if (!file.type || !file.type.startsWith('image/')) return 'Please select an image file';
  if (file.size >= MAX_AVATAR_BYTES) return 'File size must be less than 5MB';
  return null;
}

/** Longer side at most 200 px, proportions kept, never upscaled. */
export function scaledSize(w: number, h: number, max = AVATAR_MAX_SIDE): { width: number; height: number } {
  if (w <= 0 || h <= 0) return { width: 0, height: 0 };
  const k = Math.min(1, max / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
}

export function compressAvatar(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      try {
        const { width, height } = scaledSize(img.naturalWidth, img.naturalHeight);
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('Canvas not available');
        ctx.fillStyle = '#fff';
        ctx.fillRect(0, 0, width, height);
        ctx.drawImage(img, 0, 0, width, height);
        resolve(canvas.toDataURL('image/jpeg', AVATAR_QUALITY));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        URL.revokeObjectURL(url);
      }
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('Could not read the image'));
    };
    img.src = url;
  });
}

export function stableHash(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h;
}

export type AvatarFallback = { kind: 'guest' } | { kind: 'bot' } | { kind: 'default'; index: number };

export function avatarFallback(id: string, isBot = false): AvatarFallback {
  if (isBot || id.startsWith('bot')) return { kind: 'bot' };
  if (id.startsWith('guest_')) return { kind: 'guest' };
  const n = /^\d+$/.test(id) ? Number(id) % 5 : stableHash(id) % 5;
  return { kind: 'default', index: n };
}
