/* x is declared inside the loop body: in the second iteration it is a fresh object with an
   indeterminate value, not the 5 of the first iteration, so the error is reachable. */
extern void __VERIFIER_error(void);
int main(void) {
  int k = 0;
  while (k < 2) {
    int x;
    if (k == 1 && x != 5) {
      __VERIFIER_error();
    }
    x = 5;
    k = k + 1;
  }
  return 0;
}
