extern void reach_error(void);
int main(int argc, char **argv) {
  if (argc == 3) reach_error();
  return 0;
}
