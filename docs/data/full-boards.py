#!/usr/bin/env python3
"""Writes docs/data/full-boards.csv: one row per full board computed, with
its provenance, from the tables below, which transcribe docs/results.md
(values, commands, costs measured there, and the commit that published
each). Add a board or a confirmation here, then run docs/data/generate.sh;
`cargo test -p grundy-cli --test data_files` checks the CSV against every
docs/data/boxes/*.json and, up to 24 cells, against the top-down solver.

Rule: a row's source is the smallest documented database box that holds
the board; every other method that gave the same value is a confirmation.
"""
import csv
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'full-boards.csv')
C = {'309':'309496b548c584543ba5aa3eca6dec15f9a19270','d2a':'d2a0bae7a12e9d58b8710d1912fb6c7befd1e98e',
'c3f':'c3f8cb7396ad1ea21d69c64568e3a57f685f98fc','5d7':'5d76e59bb4d136f8cb8db726f024df5bb6a85ae1',
'3e1':'3e10b693bc85c2bbb29dd8354ddefce852d2d2eb','f18':'f18014df8410c08a030da3a8b1c8916718f8a30c',
'bea':'bea9ed203aadbfc439f3295b3e22413c4cf28097','20c':'20c2a6881eabc1376f874374fc1639816dc89e91',
'3d0':'3d03f5bf8e30325ab3c37e66b56d6d5c9b5cc7bd','c57':'c57141c0ef6f5efa35ea7dc8285b3cbcd6431415',
'489':'48976dde9c6964edff2b1505ed97a3958f3d3398'}
# Databases of docs/results.md, smallest first:
# (rows, cols, shapes, CPU user s, peak memory MB, commit, extra build flags)
boxes = [
 (2,8,643,'0.00','6.3','489',''),
 (3,8,149413,'0.34','9.0','489',''),
 (4,6,256985,'0.54','10.5','489',''),
 (5,5,262292,'0.58','9.9','489',''),
 (3,9,754049,'2.18','15.0','489',''),
 (4,7,2618529,'7.58','30.4','489',''),
 (3,10,3806516,'14.5','46.1','489',''),
 (5,6,10230680,'35.1','108.5','489',''),
 (2,20,23315392,'366','322','3e1',' --threads 1'),
 (4,8,26452916,'269.5','352','309',''),
 (6,6,205515653,'2490','2524.560','d2a',''),
 (5,7,208208471,'2384','2492.124','c3f',''),
 (4,9,266676851,'2637','3154.896','5d7',''),
 (3,13,491747885,'6565','5495.964','f18',''),
 (2,21,56281403,'516','311.9','3d0',''),
 (2,22,135858593,'1436','716.4','3d0',''),
 (2,23,327974924,'','1707.4','3d0',' --threads 2'),  # CPU: resumed at tier 31, see results.md
 (2,24,791761115,'','3981.4','c57',' --threads 2'),  # CPU: built over seven runs, see results.md
]
val = {}
for b in range(1,25): val[(1,b)] = b
row2 = {2:1,3:5,4:8,5:4}
for b in range(2,25): val[(2,b)] = row2.get(b, 2*b)
for b,v in zip(range(3,14),[4,7,1,2,8,15,27,9,33,21,22]): val[(3,b)] = v
for b,v in zip(range(4,10),[3,9,24,19,5,10]): val[(4,b)] = v
for b,v in zip(range(5,8),[8,23,28]): val[(5,b)] = v
val[(6,6)] = 8
fits = lambda bx,a,b: a<=bx[0] and b<=bx[1]
# top-down confirmations with measurements
td = {}
TD = 'top-down `grundy clear --json --max-positions 200000000 FILE`'
for b in range(9,19): td[(2,b)] = [TD + ({14:' (CPU 3.2 s)',15:' (CPU 9.6 s)',16:' (CPU 30.5 s)',17:' (CPU 88.9 s)',18:' (CPU 245.7 s; 312 MB)'}.get(b,''))]
TT = 'top-down with the 6x6 4x8 3x8 databases `grundy clear --json --tables clear-6x6.gdb --tables clear-4x8.gdb --tables clear-3x8.gdb FILE`'
td[(3,9)] = [TT+' (CPU 9.5 s; 2.4 GB)', 'top-down with no database but the built-in 5x5 `XDG_DATA_HOME=/nonexistent grundy clear --json --max-positions 400000000 FILE` (CPU 10.5 s; 19 MB)']
td[(3,10)] = [TT+' (CPU 69.8 s; 2.5 GB)', 'top-down with no database but the built-in 5x5 `XDG_DATA_HOME=/nonexistent grundy clear --json --max-positions 400000000 FILE` (CPU 70.0 s; 89 MB)']
td[(3,11)] = [TT+' (CPU 380 s; 2.8 GB)']
td[(3,12)] = [TT+' --max-positions 400000000 --max-memory 10GiB (CPU 2339 s; 3.9 GB)']
extra_cost = {(4,6):' (CPU 0.79 s)',(3,7):' (CPU 0.08 s)',(5,6):' (CPU 76 s; 137 MB)'}
rows = []
for (a,b),v in sorted(val.items()):
    holders = [bx for bx in boxes if fits(bx,a,b)]
    prim = holders[0]
    conf = []
    if a == 1: conf.append('proof: a line of n cells has value n (crates/grundy/src/clear/mod.rs)')
    if a<=5 and b<=5: conf.append('brute force: every shape of the 5x5 box checked against the plain brute force over all 2^25 subsets (`cargo test -p grundy --lib shapes`)')
    if (a<=5 and b<=6) or (a,b)==(3,7): conf.append('top-down alone `cargo run --release -p grundy --example clear_full -- %d %d`%s' % (a,b,extra_cost.get((a,b),'')))
    conf += td.get((a,b),[])
    if a*b <= 24: conf.append('top-down in the test `cargo test -p grundy-cli --test data_files`')
    for bx in holders[1:]: conf.append('database %dx%d' % (bx[0],bx[1]))
    if a<=2 and b<=12: conf.append('database 2x12 (docs/data/boxes/2x12.json)')
    if (a,b) in [(6,6),(4,8),(3,11)]: conf.append('independent solver outside the project (issue 21)')
    R,Cc,sh,cpu,mem,com,thr = prim
    rows.append(dict(rows=a,cols=b,cells=a*b,value=v,method='database',
        source='grundy tables build --box %dx%d%s' % (R,Cc,thr), box='%dx%d'%(R,Cc), box_shapes=sh,
        cpu_seconds=cpu, peak_memory_mb=mem, commit=C[com], confirmations='; '.join(conf)))
with open(OUT, 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator='\n')
    w.writeheader()
    w.writerows(rows)
