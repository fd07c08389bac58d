/* Nested loops with a nondet choice in the inner body: count reaches n*m = 9 only if every
   inner iteration takes the increment. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int m = __VERIFIER_nondet_uint();
  if (n > 3 || m > 3) return 0;
  unsigned int count = 0;
  for (unsigned int i = 0; i < n; i++) {
    for (unsigned int j = 0; j < m; j++) {
      if (__VERIFIER_nondet_int()) count++;
    }
  }
  if (count == 9) reach_error();
  return 0;
}
