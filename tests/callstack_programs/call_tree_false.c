/* A call tree with no recursion: each level calls the one below four times, 8 levels deep, so
 * inlining would copy `leaf` 4^8 = 65536 times. Functions are shared instead. The error is at
 * the sixth call of leaf, whose argument is 5 only if every return went back to its own call
 * site. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int count;
void leaf(int k) {
  count++;
  if (count == 6 && k == 5) reach_error();
}
void level1(int k) { leaf(4 * k); leaf(4 * k + 1); leaf(4 * k + 2); leaf(4 * k + 3); }
void level2(int k) { level1(4 * k); level1(4 * k + 1); level1(4 * k + 2); level1(4 * k + 3); }
void level3(int k) { level2(4 * k); level2(4 * k + 1); level2(4 * k + 2); level2(4 * k + 3); }
void level4(int k) { level3(4 * k); level3(4 * k + 1); level3(4 * k + 2); level3(4 * k + 3); }
void level5(int k) { level4(4 * k); level4(4 * k + 1); level4(4 * k + 2); level4(4 * k + 3); }
void level6(int k) { level5(4 * k); level5(4 * k + 1); level5(4 * k + 2); level5(4 * k + 3); }
void level7(int k) { level6(4 * k); level6(4 * k + 1); level6(4 * k + 2); level6(4 * k + 3); }
void level8(int k) { level7(4 * k); level7(4 * k + 1); level7(4 * k + 2); level7(4 * k + 3); }
int main(void) {
  level8(0);
  return 0;
}
