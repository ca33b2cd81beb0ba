# Peak resident memory against thumbnail count: video av1-360p-5s, exact, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/standard-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot memory-vs-frame-count.gp   (SVG)
#                           gnuplot -e "fmt='png'" memory-vs-frame-count.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "memory-vs-frame-count." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1100,540 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1100,540 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1100,540 noenhanced font "sans,11" background "#ffffff"
} }
set output out
set encoding utf8
set linetype 1 lc rgb "#1f77b4" lw 1.5 dt solid
set linetype 2 lc rgb "#e6550d" lw 1.5 dt solid
set linetype 3 lc rgb "#2ca02c" lw 1.5 dt solid
set linetype 4 lc rgb "#d62728" lw 1.5 dt solid
set linetype 5 lc rgb "#9467bd" lw 1.5 dt solid
set linetype 6 lc rgb "#8c564b" lw 1.5 dt solid
set linetype 7 lc rgb "#e377c2" lw 1.5 dt solid
set linetype 8 lc rgb "#525252" lw 1.5 dt solid
set linetype 9 lc rgb "#bcbd22" lw 1.5 dt solid
set linetype 10 lc rgb "#17becf" lw 1.5 dt solid
set linetype 11 lc rgb "#fd8d3c" lw 1.5 dt solid
set linetype 12 lc rgb "#08306b" lw 1.5 dt solid
set linetype 13 lc rgb "#1f77b4" lw 1.5 dt (8,4)
set linetype 14 lc rgb "#e6550d" lw 1.5 dt (8,4)
set linetype 15 lc rgb "#2ca02c" lw 1.5 dt (8,4)
set linetype 16 lc rgb "#d62728" lw 1.5 dt (8,4)
set linetype 17 lc rgb "#9467bd" lw 1.5 dt (8,4)
set linetype 18 lc rgb "#8c564b" lw 1.5 dt (8,4)
set linetype 19 lc rgb "#e377c2" lw 1.5 dt (8,4)
set linetype 20 lc rgb "#525252" lw 1.5 dt (8,4)
set linetype 21 lc rgb "#bcbd22" lw 1.5 dt (8,4)
set linetype 22 lc rgb "#17becf" lw 1.5 dt (8,4)
set linetype 23 lc rgb "#fd8d3c" lw 1.5 dt (8,4)
set linetype 24 lc rgb "#08306b" lw 1.5 dt (8,4)
set linetype 25 lc rgb "#1f77b4" lw 1.5 dt (2,3)
set linetype 26 lc rgb "#e6550d" lw 1.5 dt (2,3)
set linetype 27 lc rgb "#2ca02c" lw 1.5 dt (2,3)
set linetype 28 lc rgb "#d62728" lw 1.5 dt (2,3)
set linetype 29 lc rgb "#9467bd" lw 1.5 dt (2,3)
set linetype 30 lc rgb "#8c564b" lw 1.5 dt (2,3)
set linetype 31 lc rgb "#e377c2" lw 1.5 dt (2,3)
set linetype 32 lc rgb "#525252" lw 1.5 dt (2,3)
set linetype 33 lc rgb "#bcbd22" lw 1.5 dt (2,3)
set linetype 34 lc rgb "#17becf" lw 1.5 dt (2,3)
set linetype 35 lc rgb "#fd8d3c" lw 1.5 dt (2,3)
set linetype 36 lc rgb "#08306b" lw 1.5 dt (2,3)
set linetype cycle 36

set logscale x
set yrange [0:*]
set grid xtics ytics
set key below left Left reverse title 'pipeline'
set title 'Peak resident memory against thumbnail count: video av1-360p-5s, exact, phase total, machine epyc-2c'
set xlabel "thumbnails per strip, N (log scale)"
set ylabel "peak RSS of the process (MiB), median and 95 % CI"
plot 'memory-vs-frame-count.dat' index 0 using 1:2:3:4 with yerrorlines lt 1 lw 2 pt 7 title 'forward+rowcopy', \
     '' index 1 using 1:2:3:4 with yerrorlines lt 2 lw 2 pt 7 title 'scan+rowcopy', \
     '' index 2 using 1:2:3:4 with yerrorlines lt 3 lw 2 pt 7 title 'sequential+rowcopy', \
     '' index 3 using 1:2:3:4 with yerrorlines lt 4 lw 2 pt 7 title 'taskgroup+rowcopy'

unset output
