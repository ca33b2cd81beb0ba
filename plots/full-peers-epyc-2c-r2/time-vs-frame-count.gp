# Wall-clock time against thumbnail count: video h264-1080p-244s, phase total, machine epyc-2c
# Made by `filmstrip plot` from: results/full-peers-epyc-2c-r2-raw.csv
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
set title "Wall-clock time against thumbnail count: video h264-1080p-244s, phase total, machine epyc-2c"
set xlabel "thumbnails per strip, N (log scale)"
set ylabel "wall-clock time, median and 95 % CI (s, log scale)"
plot "time-vs-frame-count.dat" index 0 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=0;workers=auto] exact", \
     "" index 1 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] exact", \
     "" index 2 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] keyframe", \
     "" index 3 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=1;threads=0;workers=auto] exact", \
     "" index 4 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "forward+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=1;threads=1;workers=auto] exact", \
     "" index 5 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "scan+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] keyframe", \
     "" index 6 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "scan+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=1;threads=1;workers=auto] exact", \
     "" index 7 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "sequential+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] keyframe", \
     "" index 8 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "sequential+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=1;threads=1;workers=auto] exact", \
     "" index 9 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=1] exact", \
     "" index 10 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=2] exact", \
     "" index 11 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=4] exact", \
     "" index 12 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] exact", \
     "" index 13 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=0;threads=1;workers=auto] keyframe", \
     "" index 14 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=0;skip-nonref=1;threads=1;workers=auto] exact", \
     "" index 15 using 1:2:3:4 with yerrorlines lw 2 pt 7 title "taskgroup+fused [filter=area;keyframe-only=1;skip-loop-filter=1;skip-nonref=1;threads=1;workers=auto] exact"

unset output
