/* The program defines functions with libc's names and unrelated meanings (as SV-COMP's toy*.cil.c
 * define `void read(void)`): in the static replay link they replace libc's, so the harness must
 * not call any of them. Each counts its calls; the error needs the recorded values and the
 * program's own calls only. */
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);

int calls;
void read(void) { calls += 1; }
void write(void) { calls += 10; }
int open(void) { calls += 100; return -1; }
void close(void) { calls += 1000; }
void *malloc(unsigned long size) { (void)size; calls += 10000; return 0; }
void free(void *pointer) { (void)pointer; calls += 100000; }
char *getenv(const char *name) { (void)name; calls += 1000000; return 0; }
long strtoll(void) { calls += 10000000; return 0; }

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  read();
  write();
  if (x == 7 && y == -3 && calls == 11) {
    __VERIFIER_error();
  }
  return 0;
}
