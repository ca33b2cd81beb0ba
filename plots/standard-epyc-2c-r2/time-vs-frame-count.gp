# Wall-clock time against thumbnail count: video av1-360p-5s, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/standard-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot time-vs-frame-count.gp   (SVG)
#                           gnuplot -e "fmt='png'" time-vs-frame-count.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "time-vs-frame-count." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1100,620 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1100,620 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1100,620 noenhanced font "sans,11" background "#ffffff"
} }
set output out
set encoding utf8

set logscale xy
set grid xtics ytics mxtics mytics
set key outside right top title "pipeline"
set title "Wall-clock time against thumbnail count: video av1-360p-5s, phase total, machine epyc-2c"
set xlabel "thumbnails per strip, N (log scale)"
set ylabel "wall-clock time, median and 95 % CI (ms, log scale)"
plot "time-vs-frame-count.dat" index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+rowcopy", \
     "" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "scan+rowcopy", \
     "" index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "sequential+rowcopy", \
     "" index 3 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+rowcopy"

unset output
