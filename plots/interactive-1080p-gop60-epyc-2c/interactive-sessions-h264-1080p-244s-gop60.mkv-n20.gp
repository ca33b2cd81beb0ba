# slider sessions, h264-1080p-244s-gop60.mkv, N = 20, machine epyc-2c
# Made by `filmstrip plot` from: results/interactive-1080p-gop60-epyc-2c-raw.csv
# Re-plot from this folder: gnuplot interactive-sessions-h264-1080p-244s-gop60.mkv-n20.gp   (SVG)
#                           gnuplot -e "fmt='png'" interactive-sessions-h264-1080p-244s-gop60.mkv-n20.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "interactive-sessions-h264-1080p-244s-gop60.mkv-n20." . fmt
if (!exists("pngterm")) pngterm = "pngcairo"
if (fmt eq "svg") {
    set terminal svg size 1090,586 dynamic noenhanced font "sans,12" background "#ffffff"
} else { if (pngterm eq "pngcairo") {
    set terminal pngcairo size 1090,586 noenhanced font "sans,11" background "#ffffff"
} else {
    set terminal png size 1090,586 noenhanced font "sans,11" background "#ffffff"
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
set ytics (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)
set grid ytics
set xrange [-0.6:4.6]
set xtics rotate by -35 left nomirror
set key outside right top title 'configuration'
set title 'slider sessions, h264-1080p-244s-gop60.mkv, N = 20, machine epyc-2c'
set xlabel 'session step'
set ylabel 'step time / exact, generator defaults (log; 95 % CI)'
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" lw 1.5 back

plot 'interactive-sessions-h264-1080p-244s-gop60.mkv-n20.dat' using ($0 + -0.35):2:3:4:xtic(1) with yerrorbars lt 1 pt 7 ps 0.9 lw 1.5 title 'interactive:cheapest-first [cache=67108864]', \
     '' using ($0 + -0.233333):5:6:7 with yerrorbars lt 2 pt 7 ps 0.9 lw 1.5 title 'interactive:coarse-first [cache=67108864]', \
     '' using ($0 + -0.116667):8:9:10 with yerrorbars lt 3 pt 7 ps 0.9 lw 1.5 title 'interactive:exact [cache=0]', \
     '' using ($0 + -5.55112e-17):11:12:13 with yerrorbars lt 4 pt 7 ps 0.9 lw 1.5 title 'interactive:exact [cache=67108864;decoders=1]', \
     '' using ($0 + 0.116667):14:15:16 with yerrorbars lt 5 pt 7 ps 0.9 lw 1.5 title 'interactive:exact [cache=67108864;decoders=4]', \
     '' using ($0 + 0.233333):17:18:19 with yerrorbars lt 6 pt 7 ps 0.9 lw 1.5 title 'interactive:exact [cache=67108864]', \
     '' using ($0 + 0.35):20:21:22 with yerrorbars lt 7 pt 7 ps 0.9 lw 1.5 title 'interactive:spread-first [cache=67108864]'

unset output
