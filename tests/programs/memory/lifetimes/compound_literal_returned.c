// a callee returns a pointer to its compound literal, which ends with the callee
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int *make(int v) { return (int[]){v, v + 1}; }
int main(void) {
  int *p = make(__VERIFIER_nondet_int());
  if (p[1] == 5) reach_error();
  return 0;
}
