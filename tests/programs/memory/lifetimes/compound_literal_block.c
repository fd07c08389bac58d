// a compound literal of an inner block (outside loops), read through a pointer after the
// block ended: its object is dead there (valid-memsafety FALSE; CBMC: dead object)
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = 0;
  if (__VERIFIER_nondet_int()) {
    p = (int[]){1, 2};
  }
  if (p && p[0] == 1) reach_error();
  return 0;
}
