# Wall-clock time per pipeline: phase total, N = 100 thumbnails, machine epyc-2c
# Made by `filmstrip plot` from: results/standard-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot time-per-pipeline.gp   (SVG)
#                           gnuplot -e "fmt='png'" time-per-pipeline.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "time-per-pipeline." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 4920,620 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 4920,620 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 4920,620 noenhanced font "sans,11" background "#ffffff"
} }
set output out
set encoding utf8

set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.75 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set xtics rotate by -35 left nomirror
set key outside right top
set title "Wall-clock time per pipeline: phase total, N = 100 thumbnails, machine epyc-2c"
set xlabel "pipeline (extractor+composer)"
set ylabel "wall-clock time, median and 95 % CI (s)"
set key title "video"
plot "time-per-pipeline.dat" using 2:3:4:xtic(1) title "av1-360p-5s", \
     "" using 5:6:7 title "h264-360p-244s", \
     "" using 8:9:10 title "h264-360p-5s", \
     "" using 11:12:13 title "h264-720p-60s", \
     "" using 14:15:16 title "hevc-360p-5s", \
     "" using 17:18:19 title "mpeg4-360p-5s", \
     "" using 20:21:22 title "vp9-360p-5s"

unset output
