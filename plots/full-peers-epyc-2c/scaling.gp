# Speed-up against workers over one worker, machine epyc-2c (2 cores): h264-1080p-244s ×500 exact
# Made by `filmstrip plot` from: results/full-peers-epyc-2c-raw.csv
# Re-plot from this folder: gnuplot scaling.gp   (SVG)
#                           gnuplot -e "fmt='png'" scaling.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "scaling." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1100,660 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1100,660 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1100,660 noenhanced font "sans,11" background "#ffffff"
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

set logscale x 2
set xrange [1:4]
set yrange [0:*]
set grid xtics ytics
set key below left Left reverse
set title 'Speed-up against workers over one worker, machine epyc-2c (2 cores): h264-1080p-244s ×500 exact'
set xlabel "workers (log scale)"
set ylabel "speed-up: one-worker median / median (95 % CI)"
plot 'scaling.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 lc 1 title 'taskgroup+fused', \
     '' index 0 using 1:5 with linespoints dt 2 lw 1 pt 6 lc 1 title 'bound: CPU time over the cores', \
     'scaling.dat' index 0 using 1:6 with lines lc rgb "#888888" lw 1 title 'ideal: min(workers, 2 cores)'

unset output
