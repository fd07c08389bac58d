// each run reads the previous run's buffer after it was freed (valid-memsafety: use after
// free); the pointer `prev` is live where the site runs, so its freed object is not reused
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int *prev = 0;
  int total = 0;
  for (int i = 0; i < 100; i++) {
    int *p = malloc(sizeof(int) * 4);
    p[0] = i;
    if (prev) total += prev[0];
    free(p);
    prev = p;
  }
  return total;
}
