// 1 000 entries, each either used with a pointer to `cell` or unused with NULL, then the value
// of every used entry read through its pointer: TRUE. The pointer read in the second loop is
// havoc unless it is the tracked element's, so both the comparison with NULL and the
// dereference are invalid accesses of the abstraction that only their restriction to the
// tracked element (like an error edge's) rules out.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct entry { int used; int *value; };
struct entry table[1000];
int cell = 5;
int main(void) {
  for (int i = 0; i < 1000; i++) {
    if (__VERIFIER_nondet_int()) { table[i].used = 1; table[i].value = &cell; }
    else { table[i].used = 0; table[i].value = 0; }
  }
  int sum = 0;
  for (int i = 0; i < 1000; i++)
    if (table[i].used) {
      if (table[i].value == 0) reach_error();
      sum += *table[i].value == 5;
    }
  return sum > 1000;
}
