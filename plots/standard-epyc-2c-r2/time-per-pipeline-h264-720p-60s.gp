# Wall time over the fastest at each N: video h264-720p-60s, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/standard-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot time-per-pipeline-h264-720p-60s.gp   (SVG)
#                           gnuplot -e "fmt='png'" time-per-pipeline-h264-720p-60s.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "time-per-pipeline-h264-720p-60s." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 900,700 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 900,700 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 900,700 noenhanced font "sans,11" background "#ffffff"
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

set logscale y
set autoscale yfix
set offsets 0, 0, graph 0.05, graph 0.05
set format y "%.3g"
set ytics (1, 2, 5, 10)
set grid ytics
set xrange [-0.6:7.6]
set xtics rotate by -35 left nomirror
set key outside right top title 'N, mode'
set title 'Wall time over the fastest at each N: video h264-720p-60s, phase total, machine epyc-2c'
set xlabel 'configuration, fastest first at each N (★ the default pipeline)'
set ylabel 'wall time / fastest median at that N (log scale; 95 % CI)'
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" lw 1.5 back

plot 'time-per-pipeline-h264-720p-60s.dat' using ($0 + -0.12):2:3:4:xtic(1) with yerrorbars lt 1 pt 7 ps 0.9 lw 1.5 title '×10 exact', \
     '' using ($0 + 0.12):5:6:7 with yerrorbars lt 2 pt 7 ps 0.9 lw 1.5 title '×100 exact'

unset output
