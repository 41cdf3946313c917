import ShoeboxCLI

@main
enum ShoeboxMain {
    static func main() async {
        await Shoebox.start()
    }
}
