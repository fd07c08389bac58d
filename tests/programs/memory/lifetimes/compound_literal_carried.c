// a compound literal written in each iteration, a pointer to the last one kept into the next
// (its object is dead there in C: valid-memsafety FALSE by CBMC's reading; never TRUE here)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = 0;
  for (int i = 0; i < 3; i++) {
    int *q = (int[]){i, i + 1};
    if (p && p[0] == i - 1) reach_error();
    p = q;
  }
  return 0;
}
