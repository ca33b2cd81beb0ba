#ifndef FILMSTRIP_INSTRUCTION_MARKS_H
#define FILMSTRIP_INSTRUCTION_MARKS_H

// Phase boundaries of a `bench-run` child, for instruction counting under valgrind.
// `bench --measure instructions` runs the child under callgrind with one
// `--dump-before=NAME` per function below, so the counts up to each boundary are written
// as one profile part named after the boundary. Outside valgrind they do nothing.
void filmstrip_mark_measured_begins(void);
void filmstrip_mark_compose_begins(void);
void filmstrip_mark_measured_ends(void);

#endif
