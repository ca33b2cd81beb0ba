# Wall-clock time against thumbnail count: video h264-1080p-244s, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/full-peers-epyc-2c-r4-raw.csv
# Re-plot from this folder: gnuplot time-vs-frame-count.gp   (SVG)
#                           gnuplot -e "fmt='png'" time-vs-frame-count.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "time-vs-frame-count." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1100,580 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1100,580 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1100,580 noenhanced font "sans,11" background "#ffffff"
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

set logscale xy
set grid xtics ytics mxtics mytics
set key below left Left reverse title "pipeline"
set title 'Wall-clock time against thumbnail count: video h264-1080p-244s, phase total, machine epyc-2c'
set xlabel "thumbnails per strip, N (log scale)"
set ylabel "wall-clock time, median and 95 % CI (s, log scale)"
plot 'time-vs-frame-count.dat' index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'forward+fused [skip-nonref=0;threads=1] keyframe', \
     "" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'forward+fused [skip-nonref=1;threads=0] exact', \
     "" index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'scan+fused [skip-nonref=0;threads=1] keyframe', \
     "" index 3 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'scan+fused [skip-nonref=1;threads=1] exact', \
     "" index 4 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'sequential+fused [skip-nonref=0;threads=1] keyframe', \
     "" index 5 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'taskgroup+fused [skip-nonref=0;threads=1] exact', \
     "" index 6 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'taskgroup+fused [skip-nonref=0;threads=1] keyframe', \
     "" index 7 using 1:2:3:4 with yerrorlines lw 2 pt 7 title 'taskgroup+fused [skip-nonref=1;threads=1] exact'

unset output
