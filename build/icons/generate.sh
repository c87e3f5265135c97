#!/usr/bin/env bash
# Regenerates the app icon set from icon.svg (commit the results):
#   png/<N>x<N>.png  16…1024  Linux (electron-builder picks the set from build/icons/png) and the window icon
#   icon.png         1024     generic / electron-builder fallback
#   icon.ico         16…256   Windows (NSIS installer and executable)
#   icon.icns        16…1024  macOS (dmg and app bundle)
# Tools (Debian): apt-get install -y librsvg2-bin icoutils icnsutils
set -euo pipefail
cd "$(dirname "$0")"
for tool in rsvg-convert icotool png2icns; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y librsvg2-bin icoutils icnsutils" >&2; exit 1; }
done
mkdir -p png
for n in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert --width "$n" --height "$n" --keep-aspect-ratio icon.svg --output "png/${n}x${n}.png"
done
cp png/1024x1024.png icon.png
icotool --create --output icon.ico png/16x16.png png/24x24.png png/32x32.png png/48x48.png png/64x64.png png/128x128.png --raw=png/256x256.png
# png2icns maps each PNG to the icns type of its size (16, 32, 48, 128, 256, 512, 1024).
png2icns icon.icns png/16x16.png png/32x32.png png/48x48.png png/128x128.png png/256x256.png png/512x512.png png/1024x1024.png >/dev/null
echo "icons written to $(pwd)"
