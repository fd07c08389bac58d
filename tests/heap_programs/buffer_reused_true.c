// a buffer allocated, used and freed 100 times in a loop: one object of the pool is handed out
// again each time (no pointer to it outlives its run): TRUE under unreach-call and valid-memsafety
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
int main(void) {
  int total = 0;
  for (int i = 0; i < 100; i++) {
    int *p = malloc(sizeof(int) * 4);
    p[0] = i;
    p[3] = 1;
    total += p[3] + p[0] - i;
    free(p);
  }
  if (total != 100) reach_error();
  return 0;
}
