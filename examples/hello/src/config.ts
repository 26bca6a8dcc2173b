export default {
  port: 3000,
  host: "localhost",
}
