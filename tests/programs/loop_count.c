/* Counting loop: i reaches 5 after 5 iterations, then the assertion fails. */
extern void __VERIFIER_error(void);
int main(void) {
  int i = 0;
  while (i < 5) {
    i = i + 1;
  }
  if (i == 5) {
    __VERIFIER_error();
  }
  return 0;
}
