import { startLoopBackTodo } from "@payspec/third-party";
import { realServerSuite } from "../support/real-server-suite.js";

realServerSuite("LoopBack 4's todo example", startLoopBackTodo);
