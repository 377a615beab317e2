export {
  type BrokerCall,
  type BrokerDouble,
  type BrokerDoubleOptions,
  type PublishedPact,
  startBrokerDouble,
  type VerificationResult,
} from "./broker-double.js";
