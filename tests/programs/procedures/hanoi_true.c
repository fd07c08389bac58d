/* Towers of Hanoi: n discs take 2^n - 1 moves. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
unsigned moves;
void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  moves++;
  hanoi(n - 1, via, to, from);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 5) return 0;
  hanoi(n, 1, 3, 2);
  if (moves != (1u << n) - 1) reach_error();
  return 0;
}
