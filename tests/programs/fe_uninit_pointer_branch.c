// a pointer set on one branch only, then written through: on the other branch it is read before
// any write (the optimiser would fold its undef value into &x, a wrong TRUE)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int *p;
  if (__VERIFIER_nondet_int()) p = &x;
  *p = 1;
  return x;
}
