# Wall-clock time against thumbnail count: 7 videos, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/standard-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot time-vs-frame-count.gp   (SVG)
#                           gnuplot -e "fmt='png'" time-vs-frame-count.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "time-vs-frame-count." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1100,780 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1100,780 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1100,780 noenhanced font "sans,11" background "#ffffff"
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
set key below left Left reverse title 'video: pipeline'
set title 'Wall-clock time against thumbnail count: 7 videos, phase total, machine epyc-2c'
set xlabel "thumbnails per strip, N (log scale)"
set ylabel "wall-clock time, median and 95 % CI (s, log scale)"
plot 'time-vs-frame-count.dat' index 0 using 1:2:3:4 with yerrorlines lt 1 dt 1 lw 2 pt 7 title 'av1-360p-5s: forward+rowcopy', \
     "" index 1 using 1:2:3:4 with yerrorlines lt 1 dt 2 lw 2 pt 5 title 'av1-360p-5s: scan+rowcopy', \
     "" index 2 using 1:2:3:4 with yerrorlines lt 1 dt 3 lw 2 pt 13 title 'av1-360p-5s: sequential+rowcopy', \
     "" index 3 using 1:2:3:4 with yerrorlines lt 1 dt 4 lw 2 pt 9 title 'av1-360p-5s: taskgroup+rowcopy', \
     "" index 4 using 1:2:3:4 with yerrorlines lt 2 dt 1 lw 2 pt 7 title 'h264-360p-244s: forward+rowcopy', \
     "" index 5 using 1:2:3:4 with yerrorlines lt 2 dt 2 lw 2 pt 5 title 'h264-360p-244s: scan+rowcopy', \
     "" index 6 using 1:2:3:4 with yerrorlines lt 2 dt 3 lw 2 pt 13 title 'h264-360p-244s: sequential+rowcopy', \
     "" index 7 using 1:2:3:4 with yerrorlines lt 2 dt 4 lw 2 pt 9 title 'h264-360p-244s: taskgroup+rowcopy', \
     "" index 8 using 1:2:3:4 with yerrorlines lt 3 dt 1 lw 2 pt 7 title 'h264-360p-5s: forward+rowcopy', \
     "" index 9 using 1:2:3:4 with yerrorlines lt 3 dt 2 lw 2 pt 5 title 'h264-360p-5s: scan+rowcopy', \
     "" index 10 using 1:2:3:4 with yerrorlines lt 3 dt 3 lw 2 pt 13 title 'h264-360p-5s: sequential+rowcopy', \
     "" index 11 using 1:2:3:4 with yerrorlines lt 3 dt 4 lw 2 pt 9 title 'h264-360p-5s: taskgroup+rowcopy', \
     "" index 12 using 1:2:3:4 with yerrorlines lt 4 dt 1 lw 2 pt 7 title 'h264-720p-60s: forward+rowcopy', \
     "" index 13 using 1:2:3:4 with yerrorlines lt 4 dt 2 lw 2 pt 5 title 'h264-720p-60s: scan+rowcopy', \
     "" index 14 using 1:2:3:4 with yerrorlines lt 4 dt 3 lw 2 pt 13 title 'h264-720p-60s: sequential+rowcopy', \
     "" index 15 using 1:2:3:4 with yerrorlines lt 4 dt 4 lw 2 pt 9 title 'h264-720p-60s: taskgroup+rowcopy', \
     "" index 16 using 1:2:3:4 with yerrorlines lt 5 dt 1 lw 2 pt 7 title 'hevc-360p-5s: forward+rowcopy', \
     "" index 17 using 1:2:3:4 with yerrorlines lt 5 dt 2 lw 2 pt 5 title 'hevc-360p-5s: scan+rowcopy', \
     "" index 18 using 1:2:3:4 with yerrorlines lt 5 dt 3 lw 2 pt 13 title 'hevc-360p-5s: sequential+rowcopy', \
     "" index 19 using 1:2:3:4 with yerrorlines lt 5 dt 4 lw 2 pt 9 title 'hevc-360p-5s: taskgroup+rowcopy', \
     "" index 20 using 1:2:3:4 with yerrorlines lt 6 dt 1 lw 2 pt 7 title 'mpeg4-360p-5s: forward+rowcopy', \
     "" index 21 using 1:2:3:4 with yerrorlines lt 6 dt 2 lw 2 pt 5 title 'mpeg4-360p-5s: scan+rowcopy', \
     "" index 22 using 1:2:3:4 with yerrorlines lt 6 dt 3 lw 2 pt 13 title 'mpeg4-360p-5s: sequential+rowcopy', \
     "" index 23 using 1:2:3:4 with yerrorlines lt 6 dt 4 lw 2 pt 9 title 'mpeg4-360p-5s: taskgroup+rowcopy', \
     "" index 24 using 1:2:3:4 with yerrorlines lt 7 dt 1 lw 2 pt 7 title 'vp9-360p-5s: forward+rowcopy', \
     "" index 25 using 1:2:3:4 with yerrorlines lt 7 dt 2 lw 2 pt 5 title 'vp9-360p-5s: scan+rowcopy', \
     "" index 26 using 1:2:3:4 with yerrorlines lt 7 dt 3 lw 2 pt 13 title 'vp9-360p-5s: sequential+rowcopy', \
     "" index 27 using 1:2:3:4 with yerrorlines lt 7 dt 4 lw 2 pt 9 title 'vp9-360p-5s: taskgroup+rowcopy'

unset output
