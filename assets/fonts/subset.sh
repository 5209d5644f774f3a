#!/bin/sh
# Makes the CJK subset fonts the canvas embeds (assets/fonts.go): Noto Sans
# CJK SC, Regular and Bold, cut down to the characters of the words the canvas
# draws (i18n/canvas.go) that the Go font lacks, plus those of margin.txt.
# Needs Debian's fonts-noto-cjk and python3-fonttools (pyftsubset):
#   apt-get install -y fonts-noto-cjk python3-fonttools
# Run from the repository's root: make fonts (or sh assets/fonts/subset.sh).
set -eu
NOTO=${NOTO:-/usr/share/fonts/opentype/noto}
PY=${PYTHON:-/usr/bin/python3}
dir=assets/fonts
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
go run ./cmd/cjkchars $dir/margin.txt >"$chars"
echo "$(wc -m <"$chars") characters"
for w in Regular Bold; do
	# face 2 of the collection is SC (Simplified Chinese)
	"$PY" -m fontTools.subset "$NOTO/NotoSansCJK-$w.ttc" --font-number=2 \
		--text-file="$chars" --no-hinting --desubroutinize \
		--layout-features='' --name-IDs='*' --notdef-outline \
		--output-file="$dir/NotoSansSC-subset-$w.otf"
	echo "$dir/NotoSansSC-subset-$w.otf: $(wc -c <"$dir/NotoSansSC-subset-$w.otf") bytes"
done
