# Composition throughput: 500 thumbnails of 114x64 px, machine epyc-2c
# Made by `filmstrip plot` from: results/full-peers-epyc-2c-r2-raw.csv
# Re-plot from this folder: gnuplot composition-throughput.gp   (SVG)
#                           gnuplot -e "fmt='png'" composition-throughput.gp   (PNG)
if (!exists("fmt")) fmt = "svg"
if (!exists("out")) out = "composition-throughput." . fmt
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

set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.75 border -1
set boxwidth 0.9
set grid ytics
set yrange [0:*]
set xtics rotate by -35 left nomirror
set key outside right top
set xrange [-0.5:7 - 0.5]
set title "Composition throughput: 500 thumbnails of 114x64 px, machine epyc-2c"
set xlabel "composer"
set ylabel "throughput, median and 95 % CI (GB/s of strip bytes)"
plot "composition-throughput.dat" using 2:3:4:xtic(1) lc rgb "#4477aa" title "composer (median, 95 % CI)", \
     22.8411 with lines dt 2 lw 2 lc rgb "black" title "memcpy floor: 22.84 GB/s"

unset output
