/* `x + 1 < x` is folded to false by optimisers that exploit signed-overflow UB. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x + 1 < x) {
    reach_error();
  }
  return 0;
}
