extern void reach_error(void);
/* true for every real run: argv[0..argc-1] are never NULL; but it reads every argument, more
   than the model holds */
int main(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    if (argv[i] == 0) reach_error();
  }
  return 0;
}
