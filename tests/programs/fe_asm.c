int main(void) {
  __asm__ volatile("nop");
  return 0;
}
